/** Saves a file the dashboard made (an evidence pack, an export) through the browser's own download. */
export const saveFile = (name: string, contents: Blob) => {
  const url = URL.createObjectURL(contents);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob by the time this runs.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};
