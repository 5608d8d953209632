/**
 * Raw deflate sized to its input, for the many small blobs an index writes (a revision's body lines,
 * its SKILL.md text): setting up zlib's default 32 KiB window is most of the cost of compressing a
 * 1 KB text. A window no larger than the input finds the same matches (on the bench library's body
 * lines and texts: the same size within 0.1 %, 30 to 50 % less CPU per blob), and the stream
 * inflates with the defaults as before (a reader's window is never smaller than the writer's).
 */
import { deflateRawSync } from 'node:zlib';

/**
 * `bytes` raw-deflated at zlib's default level, with the smallest window that holds them, into an
 * output buffer sized to them. zlib's default output chunk is 16 KiB, and the result is a view of
 * it: every blob of a full index kept 16 KiB of memory alive while it waited for its INSERT (10,000
 * revision texts of ~0.7 KB held 177 MB of array buffers), and the collector ran on that. The
 * bytes are the same whatever the chunk (the output is cut into chunks, not compressed in them).
 */
export function deflateRawFitted(bytes: Uint8Array): Buffer {
  // 2^9 to 2^15 bytes: raw deflate's range of windows.
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(bytes.length + 1))));
  return deflateRawSync(bytes, { windowBits, chunkSize: outputChunk(bytes.length) });
}

// Room for the deflated form of `n` bytes in one chunk: zlib's deflateBound (n + n/8 + n/64 + a
// few bytes), at least zlib's smallest chunk of 64 bytes. Output past it goes to more chunks.
function outputChunk(n: number): number {
  return Math.max(64, n + (n >> 3) + (n >> 6) + 64);
}
