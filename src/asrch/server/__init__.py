"""The MCP server (D29): the second composition root, beside `asrch.cli`.

It serves the four commands as MCP tools over stdio with the official SDK (`mcp` 2.x,
the `mcp` extra of the `asrch-cli` distribution), through the same use cases
(`asrch.commands`) and renderers as the command line. Only this package imports `mcp`;
the command line imports it only for `asrch mcp`.
"""
