"""The one reader of Python's error reports in an app's output."""

from __future__ import annotations

from pytest_playtest.runtime.tracebacks import has_traceback, last_exception_line, split_tracebacks

TK_CALLBACK = """\
started
Exception in Tkinter callback
Traceback (most recent call last):
  File "/usr/lib/python3.11/tkinter/__init__.py", line 1948, in __call__
    return self.func(*args)
  File "main.py", line 12, in on_add
    self.total = add(self.total, 1)
NameError: name 'amout' is not defined
still running
Traceback (most recent call last):
  File "main.py", line 30, in <module>
    main()
ZeroDivisionError: division by zero
"""


def test_each_report_is_one_block_from_its_header_to_its_exception() -> None:
    blocks = split_tracebacks(TK_CALLBACK.splitlines())
    assert [block[0] for block in blocks] == ["Exception in Tkinter callback", "Traceback (most recent call last):"]
    assert [last_exception_line(block) for block in blocks] == [
        "NameError: name 'amout' is not defined", "ZeroDivisionError: division by zero"]


def test_a_fatal_error_or_a_threads_exception_is_a_report_too() -> None:
    assert has_traceback(["Fatal Python error: Segmentation fault", "", "Current thread 0x7f:"])
    assert has_traceback(["Exception in thread Thread-1 (worker):"])
    assert not has_traceback(["score: 3", "Traceback is a word in this game"])


def test_a_report_cut_short_is_named_by_its_last_line() -> None:
    assert last_exception_line(["Traceback (most recent call last):", '  File "main.py", line 3']) == \
        'File "main.py", line 3'
