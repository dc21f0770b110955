"""The pure core of asrch: queries, hits, counts and reports.

Nothing here runs a process, touches the filesystem, prints or reads a clock.
"""
