/** Whether `record` has an enumerable key: found without making the list of its keys. */
export function hasMembers(record: object): boolean {
  for (const _ in record) return true;
  return false;
}
