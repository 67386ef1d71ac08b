"""Instructor tools: bank statistics for people, question skeletons, previews. No Textual here."""
