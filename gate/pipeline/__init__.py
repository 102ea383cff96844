"""The stages `gate check`, `gate merge` and `gate eval` share, the preflight `check` and `validate` share, and the base branch's bar and baseline."""
