/** The spec's upload alerts, word for word (section 8). */
export const UPLOAD_SUCCESS = "All racers successfully uploaded!";
export const UPLOAD_FAILURE = "Failed to upload racers. Check console for errors.";
export const NO_DATA = "No data to upload. Please select a valid CSV file.";
