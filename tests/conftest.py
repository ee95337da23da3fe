"""Shared fixtures: the worked example's inputs and a hypothesis profile for CI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from goodput.params import Params, load_params

ROOT = Path(__file__).resolve().parent.parent

settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def worked() -> Params:
    """The worked example shipped with the package."""
    return load_params()
