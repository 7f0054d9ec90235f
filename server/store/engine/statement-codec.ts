import type { BindParams, SqlValue } from 'sql.js';

/**
 * A write as the store made it through `Database.run` (a statement and its bound values) or
 * `Database.exec` (a script, without values): what a statement log records and replays.
 */
export type RecordedStatement = { kind: 'run'; sql: string; params: BindParams } | { kind: 'exec'; sql: string };

/**
 * The bytes of a statement frame (docs/decisions/the-log-format/the-log-format.md, "RCLOG 3"),
 * all numbers little-endian: u8 kind (0 run with values by position, 1 run with values by name,
 * 2 exec), u32 length and the SQL text in UTF-8, then for a run u32 count and each value:
 * for one by name first u16 length and its name; then u8 type and its bytes: 0 null; 1 a
 * number, f64 (sql.js binds it as it did when it was recorded: an integer within 32 bits as an
 * integer, any other as a double); 2 text, u32 length, UTF-8; 3 a blob, u32 length, its bytes;
 * 4 a bigint, u32 length and its decimal digits (bound again as the same bigint).
 */
const kinds = { byPosition: 0, byName: 1, exec: 2 } as const;
const types = { null: 0, number: 1, text: 2, blob: 3, bigint: 4 } as const;

/** Raised when a statement's values cannot be recorded or a frame cannot be decoded. */
export class StatementCodecError extends Error {}

class Writer {
  private buffer = Buffer.allocUnsafe(256);
  length = 0;

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  u8(value: number): void {
    this.room(1);
    this.buffer[this.length++] = value;
  }

  u16(value: number): void {
    this.room(2);
    this.length = this.buffer.writeUInt16LE(value, this.length);
  }

  u32(value: number): void {
    this.room(4);
    this.length = this.buffer.writeUInt32LE(value, this.length);
  }

  f64(value: number): void {
    this.room(8);
    this.length = this.buffer.writeDoubleLE(value, this.length);
  }

  text(value: string, lengthBytes: 2 | 4 = 4): void {
    const bytes = Buffer.byteLength(value);
    if (lengthBytes === 2) this.u16(bytes);
    else this.u32(bytes);
    this.room(bytes);
    this.length += this.buffer.write(value, this.length);
  }

  blob(value: Uint8Array): void {
    this.u32(value.length);
    this.room(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
  }

  done(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeValue(writer: Writer, value: unknown): void {
  if (value === null || value === undefined) writer.u8(types.null);
  else if (typeof value === 'number') {
    writer.u8(types.number);
    writer.f64(value);
  } else if (typeof value === 'boolean') {
    // sql.js binds a boolean as the number it stands for.
    writer.u8(types.number);
    writer.f64(value ? 1 : 0);
  } else if (typeof value === 'string') {
    writer.u8(types.text);
    writer.text(value);
  } else if (typeof value === 'bigint') {
    writer.u8(types.bigint);
    writer.text(value.toString());
  } else if (value instanceof Uint8Array) {
    writer.u8(types.blob);
    writer.blob(value);
  } else throw new StatementCodecError(`A statement's value of type ${typeof value} cannot be recorded`);
}

/** The bytes of a statement frame's body. */
export function encodeStatement(statement: RecordedStatement): Buffer {
  const writer = new Writer();
  if (statement.kind === 'exec') {
    writer.u8(kinds.exec);
    writer.text(statement.sql);
    return writer.done();
  }
  const { params } = statement;
  const byName = params !== null && !Array.isArray(params);
  writer.u8(byName ? kinds.byName : kinds.byPosition);
  writer.text(statement.sql);
  if (byName) {
    const entries = Object.entries(params);
    writer.u32(entries.length);
    for (const [name, value] of entries) {
      writer.text(name, 2);
      writeValue(writer, value);
    }
  } else {
    const values = (params ?? []) as readonly unknown[];
    writer.u32(values.length);
    for (const value of values) writeValue(writer, value);
  }
  return writer.done();
}

/** The statement of a frame's body; throws {@link StatementCodecError} on bytes that do not decode whole. */
export function decodeStatement(bytes: Buffer): RecordedStatement {
  let at = 0;
  const need = (count: number) => {
    if (at + count > bytes.length) throw new StatementCodecError('A statement frame ends inside a value');
  };
  const u8 = () => (need(1), bytes[at++]!);
  const u16 = () => (need(2), (at += 2), bytes.readUInt16LE(at - 2));
  const u32 = () => (need(4), (at += 4), bytes.readUInt32LE(at - 4));
  const text = (length: number) => (need(length), (at += length), bytes.toString('utf8', at - length, at));
  const value = (): SqlValue => {
    const type = u8();
    if (type === types.null) return null;
    if (type === types.number) return need(8), (at += 8), bytes.readDoubleLE(at - 8);
    if (type === types.text) return text(u32());
    // sql.js's own type leaves bigint out, though it binds one.
    if (type === types.bigint) return BigInt(text(u32())) as unknown as SqlValue;
    if (type === types.blob) {
      const length = u32();
      need(length);
      at += length;
      return new Uint8Array(bytes.subarray(at - length, at));
    }
    throw new StatementCodecError(`A statement frame holds a value of unknown type ${type}`);
  };
  const kind = u8();
  const sql = text(u32());
  let statement: RecordedStatement;
  if (kind === kinds.exec) statement = { kind: 'exec', sql };
  else if (kind === kinds.byPosition) {
    const count = u32();
    const params: SqlValue[] = [];
    for (let i = 0; i < count; i++) params.push(value());
    statement = { kind: 'run', sql, params };
  } else if (kind === kinds.byName) {
    const count = u32();
    const params: Record<string, SqlValue> = {};
    for (let i = 0; i < count; i++) {
      const name = text(u16());
      params[name] = value();
    }
    statement = { kind: 'run', sql, params };
  } else throw new StatementCodecError(`A statement frame of unknown kind ${kind}`);
  if (at !== bytes.length) throw new StatementCodecError('A statement frame has bytes after its last value');
  return statement;
}
