module github.com/masque-games/masque

go 1.26.8

require golang.org/x/crypto v0.58.0
