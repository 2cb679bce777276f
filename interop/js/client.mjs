// The official A2A JS SDK client (@a2a-js/sdk) against our Campus Tutor.
//
// Proves that an unmodified SDK client can use our A2A 1.0 JSON-RPC server:
//   1. discovery: ClientFactory.createFromUrl fetches and accepts our Agent Card and
//      picks its JSONRPC 1.0 interface;
//   2. SendMessage: our answer decodes as a Message (role agent, a contextId) whose
//      text is the expected reply;
//   3. errors: GetTask of an unknown id surfaces as the SDK's TaskNotFoundError,
//      JSON-RPC code -32001, reason TASK_NOT_FOUND.
//
// Usage: node client.mjs <agent base url> <expected reply text>
// Prints one `ok …` / `FAIL …` line per check; exits 1 if any check failed.

import { randomUUID } from 'node:crypto';
import { Role } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { TaskNotFoundError, isJsonRpcError } from '@a2a-js/sdk/errors';

const [base, expectedReply] = process.argv.slice(2);
if (!base || !expectedReply) {
  console.error('usage: node client.mjs <agent base url> <expected reply text>');
  process.exit(2);
}

const QUESTION = 'Hello Tutor Agent. Can you help me with calculus?';
const TIMEOUT_MS = 10_000;
let failed = 0;

async function check(name, fn) {
  try {
    const detail = await fn();
    console.log(`ok js sdk client -> campus tutor: ${name}${detail ? ` (${detail})` : ''}`);
  } catch (e) {
    failed++;
    const cause = e?.cause ? ` (${e.cause.code ?? e.cause.message ?? e.cause})` : '';
    console.log(`FAIL js sdk client -> campus tutor: ${name}: ${e?.message ?? e}${cause}`);
  }
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

const textOf = (parts) =>
  parts.filter((p) => p.content?.$case === 'text').map((p) => p.content.value).join('\n');

let client;

await check('fetch agent card', async () => {
  client = await new ClientFactory().createFromUrl(base);
  const card = await client.getAgentCard({ signal: AbortSignal.timeout(TIMEOUT_MS) });
  assert(card.name, 'the card has no name');
  const iface = card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC');
  assert(iface, 'no JSONRPC interface in supportedInterfaces');
  assert(iface.protocolVersion === '1.0', `JSONRPC protocolVersion is ${JSON.stringify(iface.protocolVersion)}`);
  assert(iface.url.startsWith(base), `JSONRPC url ${iface.url} is not under ${base}`);
  assert(client.protocolVersion === '1.0', `client negotiated version ${client.protocolVersion}`);
  return `${card.name}, ${iface.url}`;
});

await check('SendMessage returns the reply Message', async () => {
  assert(client, 'no client (card fetch failed)');
  const result = await client.sendMessage(
    {
      message: {
        messageId: randomUUID(),
        role: Role.ROLE_USER,
        parts: [{ content: { $case: 'text', value: QUESTION }, mediaType: 'text/plain' }],
      },
    },
    { signal: AbortSignal.timeout(TIMEOUT_MS) },
  );
  assert(result && 'messageId' in result && !('status' in result), `expected a Message, got ${JSON.stringify(result)}`);
  assert(result.role === Role.ROLE_AGENT, `role is ${result.role}, not ROLE_AGENT`);
  assert(result.contextId, 'the reply has no contextId');
  const text = textOf(result.parts);
  assert(text === expectedReply, `reply text is ${JSON.stringify(text)}`);
  return `contextId=${result.contextId}`;
});

await check('GetTask of an unknown id is TaskNotFound (-32001)', async () => {
  assert(client, 'no client (card fetch failed)');
  const id = `no-such-task-${randomUUID()}`;
  let task;
  try {
    task = await client.getTask({ id }, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    assert(isJsonRpcError(e), `not a JSON-RPC error: ${e?.name}: ${e?.message}`);
    assert(e instanceof TaskNotFoundError, `error is ${e.name} (reason ${e.reason}), not TaskNotFoundError`);
    assert(e.envelopeCode === -32001, `code is ${e.envelopeCode}`);
    assert(e.reason === 'TASK_NOT_FOUND', `reason is ${e.reason}`);
    return `code ${e.envelopeCode}, ${e.reason}`;
  }
  throw new Error(`expected an error, got a task: ${JSON.stringify(task)}`);
});

process.exit(failed ? 1 : 0);
