// A tiny A2A 1.0 agent built only from the official A2A JS SDK (@a2a-js/sdk + express).
//
// Proves the other direction: our `campus student` can discover and talk to an agent
// that is not ours. The SDK serves the Agent Card (JSONRPC interface, protocolVersion
// "1.0") and the JSON-RPC endpoint; the executor answers every message with one agent
// Message: "Hello from the JS SDK agent. You said: <the user's text>" (echoing the
// text shows that our request arrived intact).
//
// Usage: node server.mjs            (listens on 127.0.0.1, on a free port)
// Once ready it prints one stdout line: `js sdk agent listening on http://127.0.0.1:<port>`.

import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import express from 'express';
import { AGENT_CARD_PATH, Role } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express';

const REPLY = 'Hello from the JS SDK agent.';
const RPC_PATH = '/a2a/jsonrpc';

const textPart = (text) => ({ content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: undefined });

/** @type {import('@a2a-js/sdk/server').AgentExecutor} */
const executor = {
  async execute(ctx, bus) {
    const said = ctx.userMessage.parts
      .filter((p) => p.content?.$case === 'text')
      .map((p) => p.content.value)
      .join('\n');
    bus.publish(
      AgentEvent.message({
        messageId: randomUUID(),
        contextId: ctx.contextId,
        taskId: '',
        role: Role.ROLE_AGENT,
        parts: [textPart(`${REPLY} You said: ${said}`)],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      }),
    );
    bus.finished();
  },
  async cancelTask() {},
};

// Bind first: the card must carry the address we really listen on.
const app = express();
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
const base = `http://127.0.0.1:${server.address().port}`;

/** @type {import('@a2a-js/sdk').AgentCard} */
const card = {
  name: 'JS SDK Agent',
  description: 'A fixed-reply agent built with the official A2A JS SDK, for interop tests.',
  supportedInterfaces: [{ url: `${base}${RPC_PATH}`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
  provider: undefined,
  version: '1.0.0',
  capabilities: { streaming: false, pushNotifications: false, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    {
      id: 'fixed-reply',
      name: 'Fixed reply',
      description: 'Answers every message with a fixed greeting and an echo.',
      tags: ['test'],
      examples: ['Hello'],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    },
  ],
  signatures: [],
};

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
app.use(RPC_PATH, jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  });
}

console.log(`js sdk agent listening on ${base}`);
