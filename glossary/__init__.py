"""Glossary of the Yili (儀禮) as read in 蔡德晉's 禮經本義: load, check, build."""

__version__ = "0.1.0"
