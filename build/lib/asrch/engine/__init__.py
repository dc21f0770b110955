"""The only code that runs ripgrep: argv, the child process, and its output."""
