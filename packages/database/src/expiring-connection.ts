/**
 * A connection the idle-connection step can retire: it knows when its current physical connection
 * was opened, and can close it so that the next use opens a fresh one. Servers and middle boxes
 * drop connections that sat idle too long; closing by age before use avoids handing a request a
 * dead one.
 */
export interface ExpiringConnection {
  /** For logs: `default`, `reporting`… */
  readonly name: string;
  /** When the current physical connection was opened (ms since the epoch), `null` while none is open. */
  openedAt(): number | null;
  /**
   * Detaches the current connection at once (the next use reconnects) and ends it once the work
   * already running on it is done. Rejects only with the error of ending it.
   */
  close(): Promise<void>;
}
