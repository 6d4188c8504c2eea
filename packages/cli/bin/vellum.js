#!/usr/bin/env node
// A committed entry point, so `npm ci` can link the `vellum` bin before `prepare` has built dist/.
import '../dist/bin.js';
