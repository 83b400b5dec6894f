package e2e

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

var updateDeploy = flag.Bool("update", false, "TestDeployExample rewrites the script block of deploy/k6-operator/testrun.yaml from examples/aftersales.js")

const (
	testRunYAML = "../deploy/k6-operator/testrun.yaml"
	mockYAML    = "../deploy/k6-operator/mock.yaml"
	exampleJS   = "../examples/aftersales.js"
	blockHeader = "  aftersales.js: |\n"
	blockIndent = "    "
)

// TestDeployExample keeps the k6-operator example runnable: the ConfigMap
// holds examples/aftersales.js as it is, the TestRun names that ConfigMap
// and key, runs the image the mock runs, and points SUT_URL at the mock's
// Service; the Dockerfile installs the binary as k6 too.
func TestDeployExample(t *testing.T) {
	yaml := readRepoFile(t, testRunYAML)
	script := readRepoFile(t, exampleJS)
	start := strings.Index(yaml, blockHeader)
	end := strings.Index(yaml, "\n---\n")
	if start < 0 || end < start {
		t.Fatalf("%s: no %q block before the TestRun", testRunYAML, strings.TrimSpace(blockHeader))
	}
	start += len(blockHeader)
	if *updateDeploy {
		yaml = yaml[:start] + yamlIndent(script) + yaml[end+1:]
		if err := os.WriteFile(testRunYAML, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := yamlUnindent(yaml[start : end+1]); got != script {
		t.Errorf("%s does not hold %s as it is; run: go test ./e2e -run TestDeployExample -update", testRunYAML, exampleJS)
	}
	testRun, mock := yaml[end:], readRepoFile(t, mockYAML)
	for _, want := range []struct{ what, in, value string }{
		{"the TestRun's ConfigMap", testRun, yamlField(t, yaml[:start], "  name")},
		{"the TestRun's script file", testRun, "aftersales.js"},
		{"the runner image", testRun, yamlField(t, mock, "          image")},
		{"SUT_URL", testRun, "http://" + yamlField(t, mock[strings.Index(mock, "kind: Service"):], "  name") + ":" +
			yamlField(t, mock[strings.Index(mock, "kind: Service"):], "      port")},
	} {
		if !strings.Contains(want.in, want.value) {
			t.Errorf("%s: %s should be %q", testRunYAML, want.what, want.value)
		}
	}
	docker := readRepoFile(t, "../Dockerfile")
	stages := strings.Split(docker, "\nFROM ")
	final := stages[len(stages)-1]
	for _, want := range []string{"/usr/bin/usefullatency", "/usr/bin/k6"} {
		if !strings.Contains(final, want) {
			t.Errorf("the Dockerfile's final stage does not install %s", want)
		}
	}
	if strings.HasPrefix(final, "golang") {
		t.Error("the Dockerfile's final stage is the Go build image; it must be a small one")
	}
}

// readRepoFile returns the content of a file of the repository.
func readRepoFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// yamlField returns the value of the first line "prefix: value" of yaml.
func yamlField(t *testing.T, yaml, prefix string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(prefix) + `: *(\S+)$`).FindStringSubmatch(yaml)
	if m == nil {
		t.Fatalf("no line %q in the YAML", prefix+": …")
	}
	return m[1]
}

// yamlIndent puts a YAML literal block's indentation before every non-empty
// line.
func yamlIndent(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = blockIndent + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// yamlUnindent is the inverse of yamlIndent.
func yamlUnindent(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, blockIndent)
	}
	return strings.Join(lines, "\n") + "\n"
}
