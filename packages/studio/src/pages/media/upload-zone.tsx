import { useId, useState, type DragEvent } from 'react';
import { ErrorMessage } from '../../ui/error-message';
import { useUploads } from './use-uploads';

/**
 * Drop files here (several at once) or pick them with the file input; each file gets a progress
 * bar, then "Uploaded" or the server's reason (an unsupported type is 415, a large file 413).
 */
export function UploadZone() {
  const { uploads, start, cancel, clearFinished } = useUploads();
  const [over, setOver] = useState(false);
  const hintId = useId();

  const dragOver = (e: DragEvent) => {
    if (!e.dataTransfer.types.includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const files = Array.from(e.dataTransfer.files);
    if (files.length > 0) start(files);
  };

  return (
    <section className="media-upload" aria-labelledby="media-upload-title">
      <h2 id="media-upload-title" className="visually-hidden">
        Upload
      </h2>
      <div
        className="media-dropzone"
        data-over={over ? 'true' : 'false'}
        data-testid="media-dropzone"
        onDragEnter={dragOver}
        onDragOver={dragOver}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <p id={hintId}>Drop files here to upload them, or</p>
        <label className="file-button primary">
          Choose files
          <input
            type="file"
            multiple
            aria-describedby={hintId}
            onChange={(e) => {
              const files = Array.from(e.currentTarget.files ?? []);
              if (files.length > 0) start(files);
              e.currentTarget.value = '';
            }}
          />
        </label>
      </div>
      {uploads.length > 0 && (
        <>
          <ul className="media-uploads" aria-label="Uploads">
            {uploads.map((u) => (
              <li key={u.key}>
                <span className="media-upload-name">{u.name}</span>
                {u.state === 'uploading' && (
                  <>
                    <progress max={u.total || 1} value={u.sent} aria-label={`Uploading ${u.name}`} />
                    <span className="muted" aria-hidden="true">
                      {u.total ? Math.round((u.sent / u.total) * 100) : 0}%
                    </span>
                    <button type="button" onClick={() => cancel(u.key)} aria-label={`Cancel uploading ${u.name}`}>
                      Cancel
                    </button>
                  </>
                )}
                {u.state === 'done' && <span className="media-upload-done">Uploaded</span>}
                {u.state === 'failed' && <ErrorMessage error={u.error} />}
                {u.state === 'cancelled' && <span className="muted">Cancelled</span>}
              </li>
            ))}
          </ul>
          {uploads.some((u) => u.state !== 'uploading') && (
            <button type="button" onClick={clearFinished}>
              Clear finished uploads
            </button>
          )}
        </>
      )}
    </section>
  );
}
