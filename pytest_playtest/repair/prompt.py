"""The repair request: the task, the failing code in its file, related files, and the diagnosis.

The text comes from package prompt files (``prompts/repair_*.md``), which a ``prompts_dir`` overrides file by
file exactly as it does the tester's prompts. A play diagnosis sends the storyboard as an ``image_url`` part.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image

from ..policies.llm import LLMOptions, encode_frame, fill, read_prompt
from .diagnosis import Diagnosis

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionContentPartParam, ChatCompletionMessageParam

PROMPT_FILES = ("repair_system.md", "repair_task.md", "repair_exec.md", "repair_pass.md", "repair_play.md",
                "repair_unusable.md", "repair_files_system.md", "repair_files_task.md")
#: Characters of one related file the prompt carries; longer files are cut (the model sees where).
CONTEXT_FILE_LIMIT = 12000
#: Characters of all related files together.
CONTEXT_LIMIT = 40000
EVIDENCE_LIMIT = 6000
STEP_LIMIT = 60
NO_STORYBOARD = "(no storyboard image was kept for this run)"
WITH_STORYBOARD = ("The attached image is the storyboard of the run: one tile per step, the action drawn on it, "
                   "findings in red.")


@dataclass(frozen=True)
class RepairTask:
    """What the model needs to know about the code to repair (benchmark task or a developer's function)."""

    task_id: str
    requirement: str
    file: str
    symbol: str
    signature: str
    language: str = "python"
    context: dict[str, str] = field(default_factory=dict)


def read_context(repo: Path, paths: list[str]) -> dict[str, str]:
    """The text of the task's context files (a folder gives its ``.py`` files), bounded in size."""
    files: list[Path] = []
    for name in paths:
        target = repo / name
        files += sorted(target.rglob("*.py")) if target.is_dir() else [target]
    context: dict[str, str] = {}
    total = 0
    for path in files:
        if total >= CONTEXT_LIMIT:
            break
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        limit = min(CONTEXT_FILE_LIMIT, CONTEXT_LIMIT - total)
        text = text if len(text) <= limit else text[:limit] + "\n…(cut)"
        context[path.relative_to(repo).as_posix()] = text
        total += len(text)
    return context


class RepairPrompt:
    """Builds the Chat Completions messages of a round from the prompt files."""

    def __init__(self, options: LLMOptions) -> None:
        self.options = options
        self.templates = {name: read_prompt(name, options.prompts_dir) for name in PROMPT_FILES}

    def messages(self, task: RepairTask, completion: str, source: str, diagnosis: Diagnosis, round_number: int,
                 unusable: str | None = None) -> list[ChatCompletionMessageParam]:
        system = fill(self.templates["repair_system.md"],
                      {"symbol": task.symbol, "file": task.file, "language": task.language}, "repair_system.md")
        return self._messages(system, self._task_text(task, completion, source), diagnosis, round_number, unusable)

    def file_messages(self, test: str, sources: dict[str, str], diagnosis: Diagnosis, round_number: int,
                      unusable: str | None = None) -> list[ChatCompletionMessageParam]:
        """A developer's repair: whole source files instead of one symbol (``playtest-repair``)."""
        files = ", ".join(f"`{name}`" for name in sources)
        system = fill(self.templates["repair_files_system.md"], {"files": files}, "repair_files_system.md")
        listing = "\n\n".join(f"`{name}`:\n```\n{text.strip(chr(10))}\n```" for name, text in sources.items())
        task = fill(self.templates["repair_files_task.md"], {"test": test, "sources": listing}, "repair_files_task.md")
        return self._messages(system, task, diagnosis, round_number, unusable)

    def _messages(self, system: str, task: str, diagnosis: Diagnosis, round_number: int,
                  unusable: str | None) -> list[ChatCompletionMessageParam]:
        text = "\n\n".join(part for part in (
            task,
            self._diagnosis_text(diagnosis, round_number),
            fill(self.templates["repair_unusable.md"], {"problem": unusable}, "repair_unusable.md")
            if unusable else "",
        ) if part)
        content: list[ChatCompletionContentPartParam] = [{"type": "text", "text": text}]
        if diagnosis.storyboard is not None:
            content.append({"type": "image_url", "image_url": {"url": self._image(diagnosis.storyboard)}})
        return [{"role": "system", "content": system}, {"role": "user", "content": content}]

    def _task_text(self, task: RepairTask, completion: str, source: str) -> str:
        context = "\n\n".join(f"`{name}`:\n```\n{text}\n```" for name, text in task.context.items()) or "(none)"
        values = {"task_id": task.task_id, "requirement": task.requirement, "file": task.file,
                  "symbol": task.symbol, "signature": task.signature, "completion": completion.strip("\n"),
                  "source": source.strip("\n"), "context": context}
        return fill(self.templates["repair_task.md"], values, "repair_task.md")

    def _diagnosis_text(self, diagnosis: Diagnosis, round_number: int) -> str:
        name = f"repair_{diagnosis.kind}.md"
        values: dict[str, object] = {"evidence": _cut(diagnosis.evidence, EVIDENCE_LIMIT), "round": round_number}
        if diagnosis.kind == "play":
            steps = diagnosis.steps[-STEP_LIMIT:]
            values |= {
                "locations": "\n".join(f"- {place}" for place in diagnosis.locations) or "(none found)",
                "findings": "\n".join(f"- {finding}" for finding in diagnosis.findings) or "(none)",
                "steps": "\n".join(steps) or "(no steps were taken)",
                "storyboard": WITH_STORYBOARD if diagnosis.storyboard is not None else NO_STORYBOARD,
            }
        return fill(self.templates[name], values, name)

    def _image(self, path: Path) -> str:
        with Image.open(path) as image:
            pixels = np.asarray(image.convert("RGB"))
        url, _ = encode_frame(pixels, self.options.image_long_side, self.options.image_format)
        return url


def _cut(text: str, limit: int) -> str:
    """The end of ``text`` when it is too long: the end of a traceback or a log says the most."""
    text = text.strip("\n")
    return text if len(text) <= limit else "…(cut)\n" + text[-limit:]
