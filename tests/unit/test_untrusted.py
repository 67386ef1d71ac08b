from study.untrusted import has_controls, shown


def test_escape_sequences_are_written_out_not_sent() -> None:
    hostile = "error\x1b]0;owned\x07 \x1b[2J\x9b31m\x00end"
    out = shown(hostile)
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out and "\x00" not in out
    assert out == "error\\x1b]0;owned\\x07 \\x1b[2J\\x9b31m\\x00end"


def test_newlines_and_tabs_stay_unless_one_line_is_asked() -> None:
    assert shown("a\tb\nc") == "a\tb\nc"
    assert shown("a\r\nb", keep_newlines=False) == "a\\r\\nb"


def test_bidi_overrides_are_escaped_and_plain_unicode_is_not() -> None:
    assert shown("x\u202ey") == "x\\u202ey"
    assert shown("Größe 80 GB — ok ✓") == "Größe 80 GB — ok ✓"
    assert has_controls("a\u2066b") and has_controls("\x1b") and not has_controls("tab\tnew\nline")


def test_surrogate_escaped_bytes_are_written_as_the_byte_not_sent() -> None:
    # Python reads an undecodable argv or stdin byte 0x9B as U+DC9B and writes it back out as the raw byte.
    assert shown("foo\udc9b\udcff") == "foo\\x9b\\xff"
    assert shown("\ud800") == "\\ud800" and has_controls("a\udc9b")
    assert shown("foo\udc9b").encode("utf-8", "surrogateescape").isascii()
