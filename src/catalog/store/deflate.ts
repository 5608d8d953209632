/**
 * Raw deflate sized to its input, for the many small blobs an index writes (a revision's body lines,
 * its SKILL.md text): setting up zlib's default 32 KiB window is most of the cost of compressing a
 * 1 KB text. A window no larger than the input finds the same matches (on the bench library's body
 * lines and texts: the same size within 0.1 %, 30 to 50 % less CPU per blob), and the stream
 * inflates with the defaults as before (a reader's window is never smaller than the writer's).
 */
import { deflateRawSync } from 'node:zlib';

/** `bytes` raw-deflated at zlib's default level, with the smallest window that holds them. */
export function deflateRawFitted(bytes: Uint8Array): Buffer {
  // 2^9 to 2^15 bytes: raw deflate's range of windows.
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(bytes.length + 1))));
  return deflateRawSync(bytes, { windowBits });
}
