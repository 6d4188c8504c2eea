/** What happened to one file of `vellum media upload`. */
export interface FileOutcome {
  file: string;
  status: 'uploaded' | 'skipped' | 'failed';
  id?: string;
  error?: string;
}

export interface FileJob {
  file: string;
  size: number;
}
