/** One request a vendor (a simulator behind a recording relay, or a hostile vendor) received, and how it answered. */
export interface VendorCall {
  vendor: string;
  /** Answered by a hostile vendor (garbage, echoes, cuts, hangs) rather than a well-behaved simulator. */
  hostile: boolean;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The status the vendor answered; undefined while it has not (or never did: a hang, a reset). */
  status?: number;
  /**
   * The vendor's 2xx answer carried an error of its own inside the stream (Bedrock's exception or error
   * message): a 4xx the gateway answers with is then the vendor's decision, as after a 4xx status.
   */
  streamError?: boolean;
  /** The vendor's answer went out whole (false while pending, and for cuts and hangs). */
  complete: boolean;
  /** The exchange is over (answered whole, cut, or abandoned by the gateway). */
  settled: boolean;
}
