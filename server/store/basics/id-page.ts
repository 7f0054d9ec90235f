/** A page of ids in list order, with the number of items matching. */
export interface IdPage {
  ids: string[];
  total: number;
}
