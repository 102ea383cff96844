"""The one HTTP layer every client of the gate goes through — the agent's adapters, the judge and the
GitHub client: the httpx client factory (gate.net.client: TLS verification, a custom CA and proxies
from the environment, connection limits, timeouts), Retry-After read one way (gate.net.retryafter),
the one error type of a failed call (gate.net.errors), the one retry policy of every client and
the loops that wait and try again by it, async and blocking (gate.net.retry), the JSON POST of the
agent's and the judge's calls (gate.net.post) and the chat-completions exchange the openai adapter
and the judge share (gate.net.chat). GitHub's rate-limit rules (its own headers, the wording of its
last error) stay with its client, gate.github.api, as hooks the shared policy calls.

Nothing here imports httpx at import time: a run that never calls out (a replayed check) never pays
for it.
"""
