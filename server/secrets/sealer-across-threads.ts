import { MessageChannel, type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import type { SealingAnswer, SealingRequest } from '../../contracts/server-thread-channel.js';
import type { Sealer } from './sealer.js';

/**
 * One end of the sealing channel: a port, and a word of shared memory the answering end sets and
 * notifies when its answer is on the port.
 */
export interface SealingEnd {
  port: MessagePort;
  signal: Int32Array;
}

/** The two ends of a sealing channel: one for the thread that seals, one for the thread that asks. */
export function sealingChannel(): { answering: SealingEnd; asking: SealingEnd } {
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  return { answering: { port: port1, signal }, asking: { port: port2, signal } };
}

const waiting = 0;
const answered = 1;

/**
 * The sealer of the thread at the other end, for the server's worker thread: a synchronous
 * `Sealer`, as the store's transactions need, whose calls each post a request and block on
 * `Atomics.wait` until the other thread has answered (one message round trip). Made when the
 * server, holding the data directory's lock, needs it: it first asks the other thread to choose
 * its sealer (with the dialogs the desktop app may show). Never on the answering thread itself,
 * which would wait for its own answer.
 */
export function sealerOfOtherThread(end: SealingEnd): Sealer {
  const ask = (request: SealingRequest): SealingAnswer => {
    Atomics.store(end.signal, 0, waiting);
    end.port.postMessage(request);
    Atomics.wait(end.signal, 0, waiting);
    const received = receiveMessageOnPort(end.port);
    if (!received) throw new Error('The sealing thread answered nothing');
    const answer = received.message as SealingAnswer;
    if (!answer.ok) throw new Error(answer.message);
    return answer;
  };
  const bytesOf = (answer: SealingAnswer): Buffer => {
    if (!('bytes' in answer)) throw new Error('The sealing thread answered without bytes');
    return Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength);
  };
  const chosen = ask({ operation: 'choose' });
  if (!('secretStorage' in chosen)) throw new Error('The sealing thread chose no sealer');
  return {
    secretStorage: chosen.secretStorage,
    seal: (plain) => bytesOf(ask({ operation: 'seal', bytes: plain })),
    unseal: (sealed) => bytesOf(ask({ operation: 'unseal', bytes: sealed })),
  };
}

/**
 * Answers the sealing requests of the thread at the other end with the sealer `choose` makes
 * when first asked. An error (a secret another sealer made, safeStorage refusing) is answered
 * with its message, which the asking thread raises. Returns what stops answering.
 */
export function answerSealingRequests(end: SealingEnd, choose: () => Sealer): () => void {
  let sealer: Sealer | undefined;
  const answer = (request: SealingRequest): SealingAnswer => {
    try {
      if (request.operation === 'choose') {
        sealer = choose();
        return { ok: true, secretStorage: sealer.secretStorage };
      }
      if (!sealer) throw new Error('No sealer was chosen');
      const bytes = Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
      return { ok: true, bytes: request.operation === 'seal' ? sealer.seal(bytes) : sealer.unseal(bytes) };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  };
  end.port.on('message', (request: SealingRequest) => {
    end.port.postMessage(answer(request));
    Atomics.store(end.signal, 0, answered);
    Atomics.notify(end.signal, 0);
  });
  return () => end.port.close();
}
