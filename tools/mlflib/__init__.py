# SPDX-License-Identifier: GPL-2.0
"""Subcommands of tools/mlf."""
