"""``goledger.commands`` finds each command's module when the command is first asked for
(PEP 562): every name it lists is the command itself, before and after every module of the
package is imported (a module named as a command would take the command's place)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
import types

from goledger.commands.table import library_names

from ..conftest import REPO


def test_every_listed_name_is_the_command_after_every_module_is_imported() -> None:
    import goledger.commands as package

    assert package.__all__ == list(library_names())  # the names the table of commands lends
    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"goledger.commands.{module.name}")
        assert module.name not in package.__all__, f"goledger.commands.{module.name} is named as a command"
    for name in package.__all__:
        value = getattr(package, name)
        assert not isinstance(value, types.ModuleType) and (callable(value) or inspect.isclass(value)), name


def test_a_recording_command_imports_its_own_deciders_only() -> None:
    code = ("import sys; from goledger import commands; commands.result; "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('goledger.commands.'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True).stdout
    loaded = set(out.split())
    assert "goledger.commands.results" in loaded
    assert not loaded & {"goledger.commands.pairing", "goledger.commands.hand", "goledger.commands.constraints"}
