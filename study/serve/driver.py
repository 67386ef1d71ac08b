"""The app side of a browser tab: textual's web driver, which also ends the app when its server is gone.

textual's own driver stops reading when stdin ends and leaves the app running with its store open, so a
server killed with -9 (or a dropped ssh session) left every tab's app alive. Stdin is the server's pipe: at
its end nobody can reach this app again, so it exits as if asked to quit, and its answers (written as each is
given) stay in the store."""

from __future__ import annotations

import asyncio

from textual import messages
from textual.drivers.web_driver import WebDriver

PATH = f"{__name__}:StudyWebDriver"  # the TEXTUAL_DRIVER value the server puts in each app's environment


class StudyWebDriver(WebDriver):
    def start_application_mode(self) -> None:
        self._study_loop = asyncio.get_running_loop()
        super().start_application_mode()

    def run_input_thread(self) -> None:
        try:
            super().run_input_thread()
        finally:
            # exit_event is set when the app itself is stopping; otherwise the server's pipe has closed.
            if not self.exit_event.is_set():
                asyncio.run_coroutine_threadsafe(self._app._post_message(messages.ExitApp()), self._study_loop)
