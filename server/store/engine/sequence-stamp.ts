import zlib from 'node:zlib';

/**
 * The 28 bytes that open a change log and make up the snapshot's header file: an 8-byte magic,
 * a u64 sequence (little-endian), the generation's 8-byte salt, and the CRC-32 of those 24
 * bytes (u32, little-endian), so that a torn or foreign header is never read as a sequence.
 */
export const stampBytes = 28;

/** A sequence and the salt of its snapshot generation (16 hex digits). */
export interface SequenceStamp {
  sequence: number;
  salt: string;
}

/** The stamp's bytes behind `magic`. */
export function encodeStamp(magic: Buffer, { sequence, salt }: SequenceStamp): Buffer {
  const bytes = Buffer.alloc(stampBytes);
  magic.copy(bytes);
  bytes.writeBigUInt64LE(BigInt(sequence), 8);
  Buffer.from(salt, 'hex').copy(bytes, 16);
  bytes.writeUInt32LE(zlib.crc32(bytes.subarray(0, 24)), 24);
  return bytes;
}

/** The stamp in `bytes`, or undefined when they do not start with `magic` or fail their checksum. */
export function decodeStamp(magic: Buffer, bytes: Buffer): SequenceStamp | undefined {
  if (bytes.length < stampBytes || !bytes.subarray(0, magic.length).equals(magic)) return undefined;
  if (bytes.readUInt32LE(24) !== zlib.crc32(bytes.subarray(0, 24))) return undefined;
  return { sequence: Number(bytes.readBigUInt64LE(8)), salt: bytes.subarray(16, 24).toString('hex') };
}
