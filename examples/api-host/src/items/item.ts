/** One item of the demo business API. */
export interface Item {
  id: number;
  name: string;
  quantity: number;
  createdAt: string;
}

/** What a client sends to create an item. */
export interface NewItem {
  name: string;
  quantity: number;
}
