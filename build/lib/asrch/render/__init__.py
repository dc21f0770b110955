"""Reports to text: pure functions of a report, no I/O."""
