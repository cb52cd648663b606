"""The write side: what plays games and stores them (config -> plan -> match -> local or Ray
backend -> the store writer), tournaments, reproductions and suite runs. See
docs/architecture.md; the read side (results/) never imports this package."""
