#!/usr/bin/env bash
# System parts the tests use, installed and started here so a clean
# machine (and CI) needs nothing by hand. Safe to run again.
set -euo pipefail
echo "[setup-system] nothing to install yet for the native tests"
