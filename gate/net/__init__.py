"""The one HTTP layer every client of the gate goes through — the agent's adapters, the judge and the
GitHub client: the httpx client factory (gate.net.client: TLS verification, a custom CA and proxies
from the environment, connection limits, timeouts), Retry-After read one way (gate.net.retryafter),
the one error type of a failed call (gate.net.errors), the retried JSON POST of the agent's and the
judge's calls (gate.net.post, gate.net.retry) and the chat-completions exchange the openai adapter
and the judge share (gate.net.chat). GitHub's rate-limit rules (its own headers, a deadline shared
by one command's requests) stay with its client, gate.github.api.

Nothing here imports httpx at import time: a run that never calls out (a replayed check) never pays
for it.
"""
