"""A tiny A2A 1.0 agent built only from the official A2A Python SDK (a2a-sdk + uvicorn).

Proves the other direction: our `campus student` can discover and talk to an agent
that is not ours. The SDK serves the Agent Card (JSONRPC interface, protocolVersion
"1.0") and the JSON-RPC endpoint; the executor answers every message with one agent
Message: "Hello from the Python SDK agent. You said: <the user's text>" (echoing the
text shows that our request arrived intact).

Usage: python server.py              (listens on 127.0.0.1, on a free port)
Once ready it prints one stdout line: `python sdk agent listening on http://127.0.0.1:<port>`.
"""

import asyncio
import socket

import uvicorn

from starlette.applications import Starlette

from a2a.helpers import get_message_text, new_text_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill

REPLY = 'Hello from the Python SDK agent.'
RPC_PATH = '/a2a/jsonrpc'


class FixedReplyExecutor(AgentExecutor):
    """Answers every message with one Message: the fixed greeting and an echo."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        said = get_message_text(context.message) if context.message else ''
        await event_queue.enqueue_event(
            new_text_message(
                f'{REPLY} You said: {said}',
                media_type='text/plain',
                context_id=context.context_id,
            )
        )

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        return None


def agent_card(base: str) -> AgentCard:
    return AgentCard(
        name='Python SDK Agent',
        description='A fixed-reply agent built with the official A2A Python SDK, for interop tests.',
        supported_interfaces=[
            AgentInterface(url=f'{base}{RPC_PATH}', protocol_binding='JSONRPC', protocol_version='1.0')
        ],
        version='1.0.0',
        capabilities=AgentCapabilities(streaming=False, push_notifications=False),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[
            AgentSkill(
                id='fixed-reply',
                name='Fixed reply',
                description='Answers every message with a fixed greeting and an echo.',
                tags=['test'],
                examples=['Hello'],
            )
        ],
    )


async def main() -> None:
    # Bind first: the card must carry the address we really listen on.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(('127.0.0.1', 0))
    base = f'http://127.0.0.1:{sock.getsockname()[1]}'

    card = agent_card(base)
    handler = DefaultRequestHandler(
        agent_executor=FixedReplyExecutor(), task_store=InMemoryTaskStore(), agent_card=card
    )
    app = Starlette(routes=create_agent_card_routes(card) + create_jsonrpc_routes(handler, RPC_PATH))

    server = uvicorn.Server(uvicorn.Config(app, log_level='warning'))
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if serving.done():  # startup failed; surface its error
            await serving
            return
        await asyncio.sleep(0.01)
    print(f'python sdk agent listening on {base}', flush=True)
    await serving  # uvicorn exits cleanly on SIGTERM / SIGINT


if __name__ == '__main__':
    asyncio.run(main())
