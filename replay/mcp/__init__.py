"""The MCP server: the interactive commands and replay over stdio, sharing the daemon's sessions."""
