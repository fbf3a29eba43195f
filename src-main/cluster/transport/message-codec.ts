// Wire format of one message: a JSON header frame (validated by its kind's zod schema) followed by zero or more
// binary frames. Outgoing binary frames are copied, so the caller may reuse or unmap its buffers (a GPU readback)
// as soon as send() returns; received frames are Uint8Array views the receiver owns.
import type { z } from 'zod';
import { MessageValidationError } from './errors.js';
import { MESSAGE_SCHEMAS, isMessageType, type ClusterMessage, type MessageType } from './messages.js';

/** A binary payload: an ArrayBuffer or any typed array / DataView over one. */
export type Frame = ArrayBuffer | ArrayBufferView;

/** A received message with its binary frames. */
export interface Decoded<M extends ClusterMessage = ClusterMessage> {
  message: M;
  frames: Uint8Array[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Payloads their sender hands over to the transport (handedOver): sent from where they are, not copied. */
const handed = new WeakSet<object>();

/**
 * Marks `frame` as handed over: encodeMessage sends it without a copy, so the caller must never change it afterwards
 * (for fresh arrays of tens of megabytes that are sent once: a re-split's cell state, whose copy into fresh memory cost
 * more than the send).
 */
export function handedOver<T extends ArrayBufferView>(frame: T): T {
  handed.add(frame);
  return frame;
}

/**
 * A copy of a payload's bytes (never shares memory with the caller), or a view of a payload handed over; not
 * zero-filled first, as migrations are megabytes every step.
 */
export function copyFrame(frame: Frame): Uint8Array {
  const bytes = frame instanceof ArrayBuffer
    ? new Uint8Array(frame)
    : new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength);
  if (handed.has(frame)) return bytes;
  const out = Buffer.allocUnsafe(bytes.byteLength);
  out.set(bytes);
  return out;
}

/** Byte length of a payload. */
export function frameBytes(frame: Frame): number {
  return frame.byteLength;
}

/**
 * Kinds a rank sends without validating them first: the orchestrator validates them on receipt. A submit's `batch`
 * carries every step's statistics, and zod's parse (which copies every record) took a rank 0.1-8 ms at each submit's
 * end, its GPU idle meanwhile.
 */
export const UNCHECKED_OUTGOING: ReadonlySet<MessageType> = new Set<MessageType>(['batch']);

/**
 * The frames of a message: header JSON then copied payloads; validates the header first (sender-side bugs show here),
 * unless `validate` is false (a hot message its receiver validates anyway: UNCHECKED_OUTGOING).
 */
export function encodeMessage(message: ClusterMessage, frames: readonly Frame[] = [], sender = 'this process', validate = true): Uint8Array[] {
  const checked = validate ? validateHeader(message, sender, Object.keys(MESSAGE_SCHEMAS) as MessageType[]) : message;
  checkFrameSizes(checked, frames.map(frameBytes), sender);
  return [encoder.encode(JSON.stringify(checked)), ...frames.map(copyFrame)];
}

/** Parses and validates received frames (header + payloads) from `sender`, accepting only the `allowed` kinds. */
export function decodeMessage(parts: readonly Uint8Array[], sender: string, allowed: readonly MessageType[]): Decoded {
  if (parts.length === 0) throw new MessageValidationError(sender, null, null, 'empty message (no header frame)');
  let header: unknown;
  try {
    header = JSON.parse(decoder.decode(parts[0]));
  } catch (e) {
    throw new MessageValidationError(sender, null, null, `header frame is not UTF-8 JSON (${(e as Error).message})`);
  }
  const message = validateHeader(header, sender, allowed);
  const frames = parts.slice(1).map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength));
  checkFrameSizes(message, frames.map((f) => f.byteLength), sender);
  return { message, frames };
}

/** Validates a header object against its kind's schema; errors name the kind and the first bad field. */
export function validateHeader(header: unknown, sender: string, allowed: readonly MessageType[]): ClusterMessage {
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    throw new MessageValidationError(sender, null, null, 'header is not a JSON object');
  }
  const type = (header as { type?: unknown }).type;
  if (!isMessageType(type)) {
    throw new MessageValidationError(sender, null, 'type',
      `unknown message type ${JSON.stringify(type)} (expected one of ${Object.keys(MESSAGE_SCHEMAS).join(', ')})`);
  }
  if (!allowed.includes(type)) {
    throw new MessageValidationError(sender, type, 'type', `'${type}' is not expected here (expected one of ${allowed.join(', ')})`);
  }
  const schema: z.ZodType = MESSAGE_SCHEMAS[type];
  const result = schema.safeParse(header);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : null;
    throw new MessageValidationError(sender, type, field, issue.message);
  }
  return result.data as ClusterMessage;
}

/** For kinds that declare frameBytes: the binary frames must match in number and size (a migrate whose payload is in a file has none). */
function checkFrameSizes(message: ClusterMessage, sizes: readonly number[], sender: string): void {
  if (!('frameBytes' in message)) return;
  if ('file' in message && message.file !== undefined) {
    if (sizes.length > 0) {
      throw new MessageValidationError(sender, message.type, 'file',
        `says its payload is in file slot ${message.file.slot} but ${sizes.length} binary frames came with it too (a message carries frames or a file, not both)`);
    }
    if (message.seq === undefined) throw new MessageValidationError(sender, message.type, 'seq', 'is missing (a message whose payload is in a file must number itself)');
    if (message.file.slot !== message.seq % 2) {
      throw new MessageValidationError(sender, message.type, 'file.slot', `is ${message.file.slot} but message ${message.seq} of a link goes in slot ${message.seq % 2}`);
    }
    return;
  }
  // a kind whose frames are optional (done) and that declares none carries none
  const declared = message.frameBytes ?? [];
  if (declared.length !== sizes.length) {
    throw new MessageValidationError(sender, message.type, 'frameBytes',
      `declares ${declared.length} binary frames but ${sizes.length} came with it`);
  }
  const bad = declared.findIndex((n, i) => n !== sizes[i]);
  if (bad >= 0) {
    throw new MessageValidationError(sender, message.type, `frameBytes.${bad}`,
      `declares ${declared[bad]} bytes but the frame has ${sizes[bad]}`);
  }
}

/** A typed-array view of a received frame (copied when its offset is not aligned for the element type). */
export function frameAs<T extends ArrayBufferView>(
  frame: Uint8Array,
  ctor: { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number },
): T {
  const size = ctor.BYTES_PER_ELEMENT;
  if (frame.byteLength % size !== 0) {
    throw new RangeError(`a frame of ${frame.byteLength} bytes is not a whole number of ${size}-byte elements`);
  }
  const source = frame.byteOffset % size === 0 ? frame : frame.slice();
  return new ctor(source.buffer, source.byteOffset, source.byteLength / size);
}
