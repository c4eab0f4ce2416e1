package compactor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Defaults of the network summarizers.
const (
	DefaultTimeout    = 5 * time.Minute // one summarization request
	DefaultRetries    = 4               // retries after the first attempt
	DefaultBackoff    = 2 * time.Second // first retry delay, doubled each time
	maxBackoff        = time.Minute     // longest computed delay
	maxRetryAfter     = 5 * time.Minute // longest Retry-After honoured
	maxErrorBodyBytes = 512             // response text quoted in an error
	maxResponseBytes  = 64 << 20        // largest response body read
)

// HTTPOptions are the transport settings shared by the network summarizers.
type HTTPOptions struct {
	Client  *http.Client  // nil: a client with Timeout
	Timeout time.Duration // per request; DefaultTimeout when 0
	Retries int           // retries after a transient failure (0: none)
	Backoff time.Duration // first retry delay; DefaultBackoff when 0
	sleep   func(context.Context, time.Duration) error
}

// StatusError is an HTTP error answer from a summarization endpoint.
type StatusError struct {
	Service string
	Status  int
	Body    string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s: HTTP %d: %s", e.Service, e.Status, e.Body)
}

func (o HTTPOptions) client() *http.Client {
	if o.Client != nil {
		return o.Client
	}
	t := o.Timeout
	if t == 0 {
		t = DefaultTimeout
	}
	return &http.Client{Timeout: t}
}

// postJSON sends body to url and returns the response body, retrying network
// errors, 429 and 5xx answers with exponential backoff (or the server's
// Retry-After).
func (o HTTPOptions) postJSON(ctx context.Context, service, url string, header http.Header, body []byte) ([]byte, error) {
	delay := o.Backoff
	if delay == 0 {
		delay = DefaultBackoff
	}
	for attempt := 0; ; attempt++ {
		resp, wait, err := o.try(ctx, service, url, header, body)
		if err == nil {
			return resp, nil
		}
		if wait < 0 || attempt >= o.Retries || ctx.Err() != nil {
			return nil, err
		}
		if wait == 0 {
			wait = min(delay<<attempt, maxBackoff)
		}
		if err := o.pause(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// try makes one request. wait is -1 when the error is final, 0 when it can be
// retried after the usual backoff, and the server's Retry-After otherwise.
func (o HTTPOptions) try(ctx context.Context, service, url string, header http.Header, body []byte) ([]byte, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, -1, fmt.Errorf("%s: %w", service, err)
	}
	req.Header = header.Clone()
	req.Header.Set("Content-Type", "application/json")
	resp, err := o.client().Do(req)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", service, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return nil, 0, fmt.Errorf("%s: read response: %w", service, err)
	}
	if resp.StatusCode/100 == 2 {
		return data, 0, nil
	}
	serr := &StatusError{Service: service, Status: resp.StatusCode, Body: clipBody(data)}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		return nil, retryAfter(resp.Header.Get("Retry-After")), serr
	}
	return nil, -1, serr
}

func (o HTTPOptions) pause(ctx context.Context, d time.Duration) error {
	if o.sleep != nil {
		return o.sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryAfter parses a Retry-After header (seconds or an HTTP date); 0 when
// absent or unreadable.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s >= 0 {
		return min(time.Duration(s)*time.Second, maxRetryAfter)
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(time.Until(t), time.Millisecond), maxRetryAfter)
	}
	return 0
}

func clipBody(b []byte) string {
	s := strings.TrimSpace(strings.ToValidUTF8(string(b), "\uFFFD"))
	if len(s) > maxErrorBodyBytes {
		s = sliceHead(s, maxErrorBodyBytes) + "…"
	}
	if s == "" {
		return "(empty body)"
	}
	return s
}

var errNoText = errors.New("the answer holds no summary text")
