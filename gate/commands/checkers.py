"""Documentation generated from the checker table, so docs/checkers.md cannot drift from the code."""

from __future__ import annotations

from gate.checkers import REGISTRY


def _params(model: type) -> str:
    """Required parameters in bold; optional ones with their default when it says something; the
    options a family of checks shares (``Params.shared_last``) after each check's own."""
    fields = getattr(model, "model_fields", {})
    shared = getattr(model, "shared_last", ())
    parts = []
    for name, info in sorted(fields.items(), key=lambda field: field[0] in shared):
        shown = info.alias or name
        if info.is_required():
            parts.append(f"**`{shown}`**")
            continue
        default = info.get_default(call_default_factory=True)
        parts.append(f"`{shown}`" if default in (None, [], {}, ()) else f"`{shown}={default!r}`")
    return ", ".join(parts) or "—"


def checker_table(*, markdown: bool = False) -> str:
    """The checker reference: id, what it checks, parameters."""
    rows = [(cid, c.summary, _params(c.params)) for cid, c in REGISTRY.items()]
    if markdown:
        lines = ["| checker | checks | parameters |", "|---|---|---|"]
        lines += [f"| `{cid}` | {summary} | {params} |" for cid, summary, params in rows]
        return "\n".join(lines)
    from tabulate import tabulate

    return tabulate(rows, headers=["checker", "checks", "parameters"], tablefmt="simple")
