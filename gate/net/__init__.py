"""The one HTTP layer every client of the gate goes through — the agent's adapters, the judge and the
GitHub client: the httpx client factory (TLS verification, a custom CA and proxies from the
environment, connection limits, timeouts), the retry policy that honours Retry-After, the one error
type of a failed call, and the chat-completions exchange the openai adapter and the judge share.

Nothing here imports httpx at import time: a run that never calls out (a replayed check) never pays
for it.
"""
