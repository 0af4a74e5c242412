"""PlayRefiner: closed-loop repair of a failing sample or app, driven by the stages' evidence and verdicts.

A round diagnoses the failing stage (compile error or traceback, unit-test output, or the playtest's
findings, steps and storyboard), asks the model for a new completion through the LLM tester's client,
validates it (it must splice and parse) and has the stages run again from exec. ``loop`` holds the rounds,
``diagnosis``/``prompt``/``reply`` what goes to the model and what comes back, ``results`` the per-round
metrics, ``report`` the HTML rows, and ``cli`` the ``playtest-repair`` command for a developer's playtests.
"""
