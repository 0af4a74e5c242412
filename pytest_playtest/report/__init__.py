"""What a person looks at after a run: artifacts, storyboard, animation, terminal text, pytest hooks."""
