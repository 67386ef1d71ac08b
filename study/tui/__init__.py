"""The Textual application: a thin layer of screens and widgets over bank, quiz, progress and calc.

Nothing here is imported by the core; importing this package alone must stay free of Textual so that
``study --help`` does not pay for it. The app lives in ``study.tui.app``.
"""
