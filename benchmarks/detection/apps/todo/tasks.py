"""To-do list logic. Pure Python, no Tk."""

from __future__ import annotations

from dataclasses import dataclass

MAX_TASKS = 8


@dataclass
class Task:
    text: str
    done: bool = False


class TaskList:
    def __init__(self, tasks: list[Task] | None = None) -> None:
        self.tasks = list(tasks or [])

    def add(self, text: str) -> bool:
        """Append a task (first letter capitalised); False for empty text or a full list."""
        text = text.strip()
        if not text:
            return False
        if len(self.tasks) >= MAX_TASKS:
            return False
        self.tasks.append(Task(text[0].upper() + text[1:]))
        return True

    def toggle(self, index: int) -> None:
        self.tasks[index].done = not self.tasks[index].done

    def delete(self, index: int) -> None:
        del self.tasks[index]

    def move_down(self, index: int) -> None:
        if index + 1 < len(self.tasks):
            self.tasks[index], self.tasks[index + 1] = self.tasks[index + 1], self.tasks[index]

    def clear_done(self) -> int:
        """Remove the finished tasks; returns how many were removed."""
        before = len(self.tasks)
        self.tasks = [task for task in self.tasks if not task.done]
        return before - len(self.tasks)

    def summary(self) -> str:
        done = sum(task.done for task in self.tasks)
        return f"{len(self.tasks)} items, {done} done"


def starter_tasks() -> list[Task]:
    return [Task("Buy milk", done=True), Task("Call Bob"), Task("Write report")]
