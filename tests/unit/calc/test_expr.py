from __future__ import annotations

import pytest

from study.calc import ExprError, compile_expr, gpu, kv_cache, model
from study.calc.units import BANDWIDTH, BYTES, FLOP_RATE, ONE, TIME


def ev(src: str, **env):
    return compile_expr(src).evaluate(env)


def test_readme_examples() -> None:
    e = compile_expr("kv_cache(model=model, seq_len=seq, batch=batch, dtype='fp16')")
    assert e.names == {"model", "seq", "batch"}
    r = e.evaluate({"model": "llama-2-70b", "seq": 2048, "batch": 4})
    assert r.value == kv_cache(model="llama-2-70b", seq_len=2048, batch=4).value
    assert r.dim == BYTES and r.display.endswith("GB") and r.steps
    half = ev("kv_cache(model=model, seq_len=seq, batch=batch, dtype='fp16') / 2", model="llama-2-70b", seq=2048, batch=4)
    assert half.value == r.value / 2
    mha = ev("kv_cache(model=model, seq_len=seq, batch=batch, dtype='fp16', kv_heads=model(model).heads)",
             model="llama-2-70b", seq=2048, batch=4)
    assert mha.value == 8 * r.value
    assert ev("weights_memory(params=70e9, dtype='fp16')").value == 140e9


def test_catalog_lookups_and_attributes() -> None:
    assert ev("gpu('H100 SXM').memory").value == 80e9
    assert ev("gpu(g).memory", g="h200-sxm").dim == BYTES
    assert ev("gpu(g).bandwidth", g="h100-sxm").dim == BANDWIDTH
    assert ev("gpu(g).peak('bf16')", g="h100-sxm").value == gpu("h100-sxm").peak_flops("bf16")
    assert ev("gpu(g).peak('fp8', sparse=True)", g="h100-sxm").dim == FLOP_RATE
    assert ev("gpu(g).name", g="l40s").value == "NVIDIA L40S"
    assert ev("model(m).kv_heads", m="llama-3-70b").value == 8
    assert ev("link('nvlink-4').per_direction").value == 450e9
    assert ev("model(model).kv_heads", model="llama-2-70b").value == model("llama-2-70b").kv_heads


def test_dimensions_are_tracked() -> None:
    r = ev("gpu(g).memory / gpu(g).bandwidth", g="h100-sxm")
    assert r.dim == TIME and r.value == pytest.approx(80e9 / 3.35e12)
    assert ev("gpu(g).memory / gpu(g).memory", g="h100-sxm").dim == ONE
    with pytest.raises(ExprError, match="cannot add a size"):
        ev("gpu('h100').memory + 1")


def test_builtins() -> None:
    assert ev("ceil(weights_memory(params=70e9, dtype='fp16') / gpu('h100-sxm').memory)").value == 2
    assert ev("floor(2.7) + round(2.5) + abs(-1)").value == 2 + 2 + 1
    assert ev("round(3.14159, 2)").value == 3.14
    assert ev("min(gpu('l4').memory, gpu('t4').memory)").value == 16e9
    assert ev("max(1, 2, 3)").value == 3
    assert ev("2 if x > 1 else 3", x=5).value == 2
    assert ev("x ** 2", x=3).value == 9


def test_names_in_call_position_are_functions_bare_names_parameters() -> None:
    e = compile_expr("model(model).layers * ceil(x)")
    assert e.names == {"model", "x"}
    assert "ceil" not in e.names


@pytest.mark.parametrize(
    "src, fragment, at",
    [
        ("().__class__", "'__class__' is not allowed", "__class__"),
        ("'a'.__class__.__mro__", "is not allowed", "__"),
        ("[x for x in y]", "comprehensions", "[x for"),
        ("lambda: 1", "lambdas", "lambda"),
        ("x[0]", "subscripts", "x[0]"),
        ("2 ** 1000", "too large", "1000"),
        ("__import__('os')", "unknown function", "__import__"),
        ("open('f')", "unknown function", "open"),
        ("kv_cash(model=m)", "did you mean kv_cache", "kv_cash"),
        ("kv_cache(modle=m)", "did you mean model", "modle"),
        ("kv_cache('llama-2-7b')", "keyword arguments only", "'llama"),
        ("gpu('h100').memroy", "did you mean memory", "memroy"),
        ("x.__dict__", "not allowed", "__dict__"),
        ("1 +", "syntax error", ""),
        ("f'{x}'", "f-strings", "f'"),
        ("a and b", "'and'/'or'", "a and"),
        ("(x := 1)", "':='", "x :="),
        ("gpu(**d)", "**kwargs", "d)"),
    ],
)
def test_rejections_carry_a_message_and_a_position(src: str, fragment: str, at: str) -> None:
    with pytest.raises(ExprError) as info:
        compile_expr(src)
    err = info.value
    assert fragment in err.message
    assert err.column == err.offset + 1
    assert src[err.offset:].startswith(at), (src, err.offset)


def test_runtime_errors_carry_positions() -> None:
    e = compile_expr("1 + model(m).memory")
    with pytest.raises(ExprError) as info:
        e.evaluate({"m": "llama-2-7b"})
    assert "no attribute 'memory'" in info.value.message
    assert "1 + model(m).memory"[info.value.offset:].startswith("memory")
    with pytest.raises(ExprError, match="unknown gpu"):
        compile_expr("gpu(g).memory").evaluate({"g": "h1000"})
    with pytest.raises(ExprError, match="no value for parameter"):
        compile_expr("x + 1").evaluate({})
    with pytest.raises(ExprError, match="division by zero"):
        compile_expr("1 / x").evaluate({"x": 0})
    with pytest.raises(ExprError, match="too large"):
        compile_expr("2 ** x").evaluate({"x": 1000})


def test_bounds_on_size_and_nesting() -> None:
    with pytest.raises(ExprError, match="too long"):
        compile_expr("1 + " * 1000 + "1")
    with pytest.raises(ExprError, match="nested|too long"):
        compile_expr("(" * 60 + "1" + ")" * 60 + " + " + "-" * 60 + "1")


def test_multiline_yaml_block_and_unicode_positions() -> None:
    src = "\n  weights_memory(params=p,\n     dtype='fp16')\n"
    assert compile_expr(src).evaluate({"p": 1e9}).value == 2e9
    src2 = "'é' + x.__class__"
    with pytest.raises(ExprError) as info:
        compile_expr(src2)
    assert src2[info.value.offset:].startswith("__class__")


def test_quantity_values_in_env_and_strings_with_units_as_arguments() -> None:
    assert ev("transfer_time(bytes='140 GB', link='ib-ndr')").value == pytest.approx(2.8)
    assert ev("transfer_time(bytes=gpu('h100-sxm').memory, link='nvlink-4')").value == pytest.approx(80 / 450)


def test_wrong_dimension_passed_to_a_formula() -> None:
    with pytest.raises(ExprError, match="a size"):
        ev("transfer_time(bytes=gpu('h100-sxm').bandwidth, link='nvlink-4')")


def test_evaluation_steps_include_the_formula_and_the_expression() -> None:
    r = ev("kv_cache(model=m, seq_len=4096) / 2", m="llama-2-70b")
    labels = [s.label for s in r.steps]
    assert labels[:2] == ["per token", "KV cache"] and labels[-1] == "expression"
    assert r.steps[-1].outcome == r.display and all(s.outcome for s in r.steps)


def test_worked_expression_takes_the_branch_and_shows_looked_up_values() -> None:
    src = ("link('nvlink-4' if gen == 4 else 'nvlink-3').per_direction"
           " / link('ib-hdr' if gen == 3 else 'ib-ndr').per_direction")
    last = compile_expr(src).evaluate({"gen": 4}).steps[-1]
    assert last.formula == "link('nvlink-4').per_direction / link('ib-ndr').per_direction"
    # NVLink 4: 900 GB/s bidirectional per GPU, 450 each way; NDR: 400 Gb/s = 50 GB/s each way.
    assert last.substituted == "450 GB/s / 50 GB/s" and last.outcome == "9"
    assert "if" not in compile_expr(src).evaluate({"gen": 3}).steps[-1].formula


def test_worked_expression_keeps_needed_parentheses_and_fills_in_parameters() -> None:
    last = compile_expr("(a + b) * c - a / (b - c)").evaluate({"a": 2, "b": 3, "c": 4}).steps[-1]
    assert last.formula == "(a + b) x c - a / (b - c)"
    assert last.substituted == "(2 + 3) x 4 - 2 / (3 - 4)" and last.outcome == "22"
    call = compile_expr("weights_memory(params=p, dtype=d) / gpu(g).memory").evaluate(
        {"p": 70e9, "d": "fp16", "g": "h100-sxm"}).steps[-1]
    assert call.formula == "weights_memory(params=70e9, dtype='fp16') / gpu('h100-sxm').memory"
    assert call.substituted == "140 GB / 80 GB"
