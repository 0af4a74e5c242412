"""PlayRefiner: closed-loop repair of a failing sample or playtest, driven by the stages' evidence and verdicts.

A round diagnoses the failing stage (compile error or traceback, unit-test output, or the playtest's
findings, steps and storyboard), asks the model for new code through the LLM tester's client, validates it
(it must splice and parse) and has the stages run again from exec. ``diagnosis``, ``prompt`` and ``reply``
are what goes to the model and what comes back; ``loop`` holds the rounds; ``benchmark`` runs a sample's
rounds through the collector's stages; ``results`` gives the per-round metrics; ``report`` the terminal
lines and HTML rows; ``patch`` and ``cli`` the ``playtest-repair`` command for a developer's playtests.
See docs/repair.md.
"""
