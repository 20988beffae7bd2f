/** A main request comes from the client; a sub-request is handled inside another (error pages). */
export enum RequestType {
  MAIN = 1,
  SUB = 2,
}
