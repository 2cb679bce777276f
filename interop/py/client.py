"""The official A2A Python SDK client (a2a-sdk) against our Campus Tutor.

Proves that an unmodified SDK client can use our A2A 1.0 JSON-RPC server:
  1. discovery: the SDK's card resolver fetches and parses our Agent Card, and
     create_client picks its JSONRPC 1.0 interface;
  2. SendMessage: our answer decodes as a Message (role agent, a contextId) whose
     text is the expected reply;
  3. errors: GetTask of an unknown id surfaces as the SDK's TaskNotFoundError,
     which the SDK maps from JSON-RPC code -32001;
  4. card signature: the SDK's own verifier (a2a.utils.signing, PyJWT) accepts our
     card's EdDSA signature with the key its protected header names, and refuses the
     card once a field is changed.

Usage: python client.py <agent base url> <expected reply text>
Prints one `ok ...` / `FAIL ...` line per check; exits 1 if any check failed.
"""

import asyncio
import json
import sys
import uuid

import httpx

from a2a.client import A2ACardResolver, ClientConfig, create_client
from a2a.helpers import get_message_text
from a2a.types import GetTaskRequest, Message, Part, Role, SendMessageRequest
from a2a.utils.errors import JSON_RPC_ERROR_CODE_MAP, TaskNotFoundError
from a2a.utils.signing import InvalidSignaturesError, create_signature_verifier
from jwt import PyJWK
from jwt.utils import base64url_decode

QUESTION = 'Hello Tutor Agent. Can you help me with calculus?'
TIMEOUT_S = 10.0


class CheckFailed(Exception):
    pass


def require(cond: object, message: str) -> None:
    if not cond:
        raise CheckFailed(message)


async def main(base: str, expected_reply: str) -> int:
    failed = 0

    async def check(name, fn):
        nonlocal failed
        try:
            detail = await asyncio.wait_for(fn(), TIMEOUT_S)
            suffix = f' ({detail})' if detail else ''
            print(f'ok python sdk client -> campus tutor: {name}{suffix}', flush=True)
        except Exception as e:  # noqa: BLE001 - every failure is reported, none is fatal
            failed += 1
            msg = str(e) or type(e).__name__
            print(f'FAIL python sdk client -> campus tutor: {name}: {msg}', flush=True)

    client = None
    fetched = None

    async def fetch_card():
        nonlocal client, fetched
        async with httpx.AsyncClient(timeout=TIMEOUT_S) as http:
            card = await A2ACardResolver(http, base).get_agent_card()
        fetched = card
        require(card.name, 'the card has no name')
        ifaces = [i for i in card.supported_interfaces if i.protocol_binding == 'JSONRPC']
        require(ifaces, 'no JSONRPC interface in supportedInterfaces')
        iface = ifaces[0]
        require(iface.protocol_version == '1.0', f'JSONRPC protocolVersion is {iface.protocol_version!r}')
        require(iface.url.startswith(base), f'JSONRPC url {iface.url} is not under {base}')
        # The client the next checks use discovers the card again on its own.
        client = await create_client(base, client_config=ClientConfig(streaming=False))
        return f'{card.name}, {iface.url}'

    async def send_message():
        require(client, 'no client (card fetch failed)')
        request = SendMessageRequest(
            message=Message(
                message_id=str(uuid.uuid4()),
                role=Role.ROLE_USER,
                parts=[Part(text=QUESTION, media_type='text/plain')],
            )
        )
        events = [event async for event in client.send_message(request)]
        require(len(events) == 1, f'expected one response, got {len(events)}')
        require(events[0].HasField('message'), f'expected a Message, got {events[0]}')
        reply = events[0].message
        require(reply.role == Role.ROLE_AGENT, f'role is {Role.Name(reply.role)}, not ROLE_AGENT')
        require(reply.context_id, 'the reply has no contextId')
        text = get_message_text(reply)
        require(text == expected_reply, f'reply text is {text!r}')
        return f'contextId={reply.context_id}'

    async def get_unknown_task():
        require(client, 'no client (card fetch failed)')
        try:
            task = await client.get_task(GetTaskRequest(id=f'no-such-task-{uuid.uuid4()}'))
        except TaskNotFoundError as e:
            code = JSON_RPC_ERROR_CODE_MAP[type(e)]
            require(code == -32001, f'code is {code}')
            return f'code {code}, {type(e).__name__}'
        raise CheckFailed(f'expected TaskNotFoundError, got a task: {task}')

    async def verify_signature():
        require(fetched is not None, 'no card (card fetch failed)')
        require(fetched.signatures, 'the card carries no signatures')
        header = json.loads(base64url_decode(fetched.signatures[0].protected.encode()))
        require(header.get('alg') == 'EdDSA', f'alg is {header.get("alg")!r}')
        key = PyJWK(header['jwk'])
        verify = create_signature_verifier(lambda kid, jku: key, algorithms=['EdDSA'])
        verify(fetched)  # raises when no signature is valid
        altered = type(fetched)()
        altered.CopyFrom(fetched)
        altered.description = fetched.description + ' (altered)'
        try:
            verify(altered)
        except InvalidSignaturesError:
            return f'kid {header.get("kid", "")[:12]}…, an altered card refused'
        raise CheckFailed('an altered card still verified')

    try:
        await check('fetch agent card', fetch_card)
        await check('the card signature verifies with the SDK (EdDSA, RFC 8785)', verify_signature)
        await check('SendMessage returns the reply Message', send_message)
        await check('GetTask of an unknown id is TaskNotFound (-32001)', get_unknown_task)
    finally:
        if client is not None:
            await client.close()
    return 1 if failed else 0


if __name__ == '__main__':
    if len(sys.argv) != 3:
        print('usage: python client.py <agent base url> <expected reply text>', file=sys.stderr)
        sys.exit(2)
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
