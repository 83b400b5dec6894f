module github.com/usefullatency/usefullatency

go 1.26.8
