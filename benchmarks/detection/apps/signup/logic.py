"""Sign-up form rules. Pure Python, no Tk."""

from __future__ import annotations

BIO_LIMIT = 40
MIN_AGE, MAX_AGE = 13, 120


def bio_left(bio: str) -> int:
    """How many characters the bio may still take (negative when it is too long)."""
    return BIO_LIMIT - len(bio)


def valid_email(email: str) -> bool:
    name, at, domain = email.strip().partition("@")
    return bool(name and at and "." in domain.strip(".") and " " not in email.strip())


def validate(name: str, email: str, age_text: str, bio: str) -> list[str]:
    """Every problem of the form, top to bottom; an empty list means the form can be sent."""
    errors = []
    if not name.strip():
        errors.append("Name is required")
    if not valid_email(email):
        errors.append("Email is not valid")
    if not age_text.strip().isdigit():
        errors.append("Age must be a number")
    elif not MIN_AGE <= int(age_text) <= MAX_AGE:
        errors.append(f"Age must be {MIN_AGE} to {MAX_AGE}")
    if bio_left(bio) < 0:
        errors.append("Bio is too long")
    return errors
