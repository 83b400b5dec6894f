package e2e

import (
	"embed"
	"fmt"
	"html"
	"io/fs"
	"net/http"
)

//go:embed testdata/site
var siteFiles embed.FS

// siteHandler serves the pages the browser scripts of the compatibility
// suite drive, under /site/: a home page linking to a login form
// (/site/my_messages: login "admin", password "123" gets "Welcome,
// admin!", as the k6 documentation's test site answers) and a page of
// form elements (/site/form.html) whose scripts echo every action into
// the page, one element appearing 300 ms after the load.
func siteHandler() http.Handler {
	sub, err := fs.Sub(siteFiles, "testdata/site")
	if err != nil {
		panic(err) // the embedded tree is part of the test binary
	}
	mux := http.NewServeMux()
	mux.Handle("/site/", http.StripPrefix("/site/", http.FileServerFS(sub)))
	mux.HandleFunc("/site/my_messages", myMessages)
	return mux
}

// myMessages is the login page: a form on GET, the verdict on POST.
func myMessages(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if r.Method != http.MethodPost {
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>My messages</title></head><body>
<h2>Unauthorized</h2>
<form method="post" action="/site/my_messages">
  <input type="text" name="login" placeholder="login">
  <input type="password" name="password" placeholder="password">
  <input type="submit" value="Go!">
</form></body></html>`)
		return
	}
	login, password := r.PostFormValue("login"), r.PostFormValue("password")
	heading := "Unauthorized"
	if login == "admin" && password == "123" {
		heading = "Welcome, " + html.EscapeString(login) + "!"
	}
	fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>My messages</title></head><body><h2>%s</h2></body></html>`, heading)
}
