"""Unit tests for the calculator logic (no Tk). Run: python unit_tests.py  (exit 0 = all passed)."""

from __future__ import annotations

import sys
import traceback

from logic import Calculator, format_number, parse_number


def press_all(keys: str, calc: Calculator | None = None) -> str:
    """Press each character of ``keys`` ("*" and "/" stand for "×" and "÷") and return the display."""
    calc = calc or Calculator()
    display = calc.display
    for key in keys:
        display = calc.press({"*": "×", "/": "÷"}.get(key, key))
    return display


def test_apply_each_operator():
    assert Calculator.apply("+", 12, 7) == 19
    assert Calculator.apply("-", 12, 7) == 5
    assert Calculator.apply("-", 7, 12) == -5
    assert Calculator.apply("×", 12, 7) == 84
    assert Calculator.apply("÷", 12, 4) == 3
    assert Calculator.apply("+", 0, 0) == 0


def test_apply_division_types():
    result = Calculator.apply("÷", 6, 3)
    assert result == 2 and isinstance(result, int)
    result = Calculator.apply("÷", 7, 2)
    assert result == 3.5 and isinstance(result, float)
    assert Calculator.apply("÷", -9, 3) == -3
    assert abs(Calculator.apply("÷", 1, 3) - 1 / 3) < 1e-12
    assert Calculator.apply("÷", 7.5, 2.5) == 3


def test_apply_errors():
    try:
        Calculator.apply("÷", 5, 0)
    except ZeroDivisionError:
        pass
    else:
        raise AssertionError("5 ÷ 0 should raise ZeroDivisionError")
    try:
        Calculator.apply("%", 5, 2)
    except ValueError:
        pass
    else:
        raise AssertionError("an unknown operator should raise ValueError")


def test_format_number():
    assert format_number(19) == "19"
    assert format_number(4.0) == "4"
    assert format_number(-12) == "-12"
    assert format_number(3.5) == "3.5"
    assert format_number(1 / 3) == "0.3333333333"
    assert format_number(-0.0) == "0"
    assert format_number(999999999999) == "999999999999"
    assert format_number(15000000000000) == "1.5e+13"
    assert format_number(2.5e-5) == "2.5e-05"


def test_parse_number():
    assert parse_number("42") == 42 and isinstance(parse_number("42"), int)
    assert parse_number("-3") == -3
    assert parse_number("3.5") == 3.5
    assert parse_number("1.5e+13") == 1.5e13


def test_starts_at_zero():
    calc = Calculator()
    assert calc.display == "0"
    assert calc.press("=") == "0"


def test_typing_digits():
    assert press_all("123") == "123"
    assert press_all("007") == "7"
    assert press_all("0") == "0"
    assert press_all("1234567890123456") == "123456789012"


def test_simple_operations():
    assert press_all("12+7=") == "19"
    assert press_all("12-7=") == "5"
    assert press_all("7-12=") == "-5"
    assert press_all("12*7=") == "84"
    assert press_all("84/7=") == "12"
    assert press_all("7/2=") == "3.5"
    assert press_all("1/3=") == "0.3333333333"


def test_operator_shows_the_running_result():
    calc = Calculator()
    assert press_all("2+3", calc) == "3"
    assert calc.press("×") == "5"
    assert calc.press("4") == "4"
    assert calc.press("=") == "20"


def test_chained_operations_run_left_to_right():
    assert press_all("2+3*4=") == "20"
    assert press_all("10-2-3=") == "5"
    assert press_all("100/4/5=") == "5"


def test_second_operator_replaces_the_first():
    assert press_all("9+-4=") == "5"
    assert press_all("6*/3=") == "2"


def test_equals_without_second_number_reuses_the_shown_one():
    assert press_all("5+=") == "10"
    assert press_all("5*=") == "25"


def test_result_can_be_continued():
    assert press_all("2+3=*4=") == "20"
    assert press_all("2+3=-1=") == "4"


def test_digit_after_result_starts_a_new_number():
    calc = Calculator()
    press_all("2+3=", calc)
    assert calc.press("7") == "7"
    assert calc.press("+") == "7"
    assert calc.press("1") == "1"
    assert calc.press("=") == "8"


def test_repeated_equals_does_nothing_more():
    assert press_all("2+3==") == "5"
    assert press_all("8==") == "8"


def test_clear():
    calc = Calculator()
    press_all("12+7", calc)
    assert calc.press("C") == "0"
    assert calc.press("=") == "0"
    assert press_all("3+4=", calc) == "7"


def test_division_by_zero_shows_error_until_a_digit_or_clear():
    calc = Calculator()
    assert press_all("8/0=", calc) == "Error"
    assert calc.press("+") == "Error"
    assert calc.press("=") == "Error"
    assert calc.press("4") == "4"
    assert press_all("+1=", calc) == "5"
    assert press_all("5/0=C") == "0"


def test_error_on_chained_division_by_zero():
    assert press_all("6/0") == "0"
    assert press_all("6/0+") == "Error"  # the next operator computes 6 ÷ 0
    assert press_all("6/0*2") == "2"  # a digit starts afresh after the error
    assert press_all("6/0*C3+4=") == "7"


def test_negative_and_float_results_feed_the_next_operation():
    assert press_all("3-5=*2=") == "-4"
    assert press_all("7/2=*2=") == "7"


def test_large_results():
    assert press_all("999999999999*9=") == "9e+12"
    assert press_all("999999999999*9=/3=") == "3e+12"
    assert press_all("999999*999999=") == "999998000001"


def test_unknown_key_raises():
    for key in ("x", "/", "", None, "10"):
        try:
            Calculator().press(key)
        except ValueError:
            continue
        raise AssertionError(f"press({key!r}) should raise ValueError")


def run_all() -> int:
    tests = [(name, obj) for name, obj in globals().items() if name.startswith("test_") and callable(obj)]
    failures = 0
    for name, test in tests:
        try:
            test()
        except Exception:
            failures += 1
            print(f"FAIL {name}")
            traceback.print_exc()
        else:
            print(f"ok   {name}")
    print(f"{len(tests) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(run_all())
