package redact

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// gitleaksTOML is gitleaks v8.30.1's default configuration, unchanged.
//
//go:embed gitleaks.toml
var gitleaksTOML string

// sessionTOML holds the rules that session files need on top of gitleaks'.
//
//go:embed rules.toml
var sessionTOML string

// piiTOML holds the optional --pii rules.
//
//go:embed pii.toml
var piiTOML string

// pathsTOML holds the optional --paths rules.
//
//go:embed paths.toml
var pathsTOML string

// RuleSpec is one detection rule in gitleaks' configuration schema, plus
// pitool's sample fields: TPs must be found, FPs must not.
type RuleSpec struct {
	ID          string          `toml:"id" json:"id"`
	Description string          `toml:"description" json:"description,omitempty"`
	Regex       string          `toml:"regex" json:"regex"`
	SecretGroup int             `toml:"secretGroup" json:"secretGroup,omitempty"`
	Entropy     float64         `toml:"entropy" json:"entropy,omitempty"`
	Keywords    []string        `toml:"keywords" json:"keywords,omitempty"`
	Path        string          `toml:"path" json:"path,omitempty"`
	Allowlists  []AllowlistSpec `toml:"allowlists" json:"allowlists,omitempty"`
	TPs         []string        `toml:"tps" json:"tps,omitempty"`
	FPs         []string        `toml:"fps" json:"fps,omitempty"`
}

// AllowlistSpec is a gitleaks allowlist: a finding is allowed when one of its
// regexes matches the target (the secret, the whole match or the line) or the
// secret contains a stopword. Paths and commits never match session text.
type AllowlistSpec struct {
	Description string   `toml:"description" json:"description,omitempty"`
	RegexTarget string   `toml:"regexTarget" json:"regexTarget,omitempty"`
	Regexes     []string `toml:"regexes" json:"regexes,omitempty"`
	StopWords   []string `toml:"stopwords" json:"stopwords,omitempty"`
	Condition   string   `toml:"condition" json:"condition,omitempty"`
	Paths       []string `toml:"paths" json:"paths,omitempty"`
	Commits     []string `toml:"commits" json:"commits,omitempty"`
}

// Config is a rule file: rules plus global allowlists (gitleaks spells the
// global one [allowlist]; newer files use [[allowlists]]).
type Config struct {
	Rules      []RuleSpec      `toml:"rules" json:"rules,omitempty"`
	Allowlist  *AllowlistSpec  `toml:"allowlist" json:"allowlist,omitempty"`
	Allowlists []AllowlistSpec `toml:"allowlists" json:"allowlists,omitempty"`
}

// DefaultConfig returns gitleaks' default rules followed by the session rules.
func DefaultConfig() (*Config, error) {
	gl, err := parseTOML("gitleaks.toml", gitleaksTOML)
	if err != nil {
		return nil, err
	}
	session, err := parseTOML("rules.toml", sessionTOML)
	if err != nil {
		return nil, err
	}
	gl.merge(session)
	return gl, nil
}

// LoadConfig reads a user rule file, TOML or JSON (chosen by the .json
// extension or a leading '{').
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("rules file: %w", err)
	}
	text := string(data)
	if strings.EqualFold(filepath.Ext(path), ".json") || strings.HasPrefix(strings.TrimSpace(text), "{") {
		var c Config
		if err := json.Unmarshal(data, &c); err != nil {
			return nil, fmt.Errorf("rules file %s: %w", path, err)
		}
		return &c, nil
	}
	return parseTOML(path, text)
}

func parseTOML(name, text string) (*Config, error) {
	var c Config
	if _, err := toml.Decode(text, &c); err != nil {
		return nil, fmt.Errorf("rules file %s: %w", name, err)
	}
	return &c, nil
}

// merge appends other's rules and allowlists; a rule whose id already exists
// replaces the earlier one, as gitleaks' [extend] does.
func (c *Config) merge(other *Config) {
	for _, r := range other.Rules {
		if i := c.ruleIndex(r.ID); i >= 0 {
			c.Rules[i] = r
		} else {
			c.Rules = append(c.Rules, r)
		}
	}
	c.Allowlists = append(c.Allowlists, other.globalAllowlists()...)
}

func (c *Config) ruleIndex(id string) int {
	for i := range c.Rules {
		if c.Rules[i].ID == id {
			return i
		}
	}
	return -1
}

func (c *Config) globalAllowlists() []AllowlistSpec {
	out := append([]AllowlistSpec(nil), c.Allowlists...)
	if c.Allowlist != nil {
		out = append(out, *c.Allowlist)
	}
	return out
}
