"""Text analysis shared by the checkers: units, sentences, Markdown structure, items, terms, prices."""
