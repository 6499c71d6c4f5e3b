"""The bottom layer: what every app may use and that knows no app.

| module | what |
|---|---|
| `bulk` | `update_each`: save a few fields of several rows in one UPDATE |
| `compiled` | `Compiled`: a queryset compiled to SQL once, run again with other ids |
| `dbguards` | `append_only`: a migration operation that makes a table's rows permanent |
| `env` | typed readers of environment variables (settings) |
| `errors` | `Refusal`: the base of every app's errors (a stable code, a message, parameters) |
| `logcontext` | `log_context`: round and table ids on every log line |

`core` imports Django and nothing of the project (the import-linter layers contract in
pyproject.toml puts it lowest).
"""
